/**
 * Makes the drawing of a built scene for the controller: a SceneView (one mesh per object, GPU
 * normals, blue tint), its analytic colliders (ColliderView, following their scripts) and the
 * overlays (OverlayView), added to the viewer's scene; GPU copies are recorded before each
 * render only when the solver advanced. Disposing it removes everything it added.
 */
import { Box3, Vector3 } from 'three/webgpu';
import type { ViewSettings } from './config/pageConfig';
import type { Viewer } from './renderer';
import { ColliderView } from './render/colliderView';
import { OverlayView } from './render/overlayView';
import { SceneView } from './render/sceneView';
import type { PageScene } from './scene/pageScene';
import type { OwnedDrawing } from './simulationController';
import type { OverlayData } from './simulationEngine';

export interface PageDrawing extends OwnedDrawing {
  readonly view: SceneView;
  readonly overlays: OverlayView;
  applyView(settings: ViewSettings): void;
  showOverlays(data: OverlayData): void;
}

export function createSceneDrawing(viewer: Viewer, scene: PageScene, settings: ViewSettings): PageDrawing {
  const view = new SceneView(viewer.renderer, scene.setup.model);
  view.syncEveryFrame = false;
  view.addTo(viewer.scene);
  const b = scene.bounds;
  const colliders = new ColliderView(scene.setup.colliders, { extent: new Box3(new Vector3(...b.min), new Vector3(...b.max)), groundY: scene.groundY });
  colliders.addTo(viewer.scene);
  const overlays = new OverlayView();
  overlays.pointRadius = 0.3 * view.surface.meanEdgeLength;
  overlays.addTo(viewer.scene);
  const sync = (): void => {
    if (view.linked) view.sync();
  };
  viewer.onBeforeRender = sync;
  const drawing: PageDrawing = {
    view,
    overlays,
    linkGpu: (source) => view.linkGpu(source),
    updateFromCpu: (positions, depth) => {
      view.updateFromCpu(positions, depth);
      viewer.requestRender();
    },
    setTime: (time) => {
      colliders.update(time);
      view.invalidate();
      viewer.requestRender();
    },
    applyView(s) {
      view.tint = s.tint;
      view.wireframe = s.wireframe;
      viewer.shadows = s.shadows;
      overlays.setVisible('points', s.points);
      overlays.setVisible('paths', s.paths);
      overlays.setVisible('ccd', s.ccd);
      overlays.setVisible('boxes', s.bvhLevel >= 0);
      viewer.requestRender();
    },
    showOverlays(data) {
      if (data.points) overlays.setPoints(data.points);
      if (data.paths) overlays.setSegments('paths', data.paths);
      if (data.ccd) overlays.setSegments('ccd', data.ccd);
      if (data.boxes) overlays.setBoxes(data.boxes);
      viewer.requestRender();
    },
    dispose() {
      viewer.requestRender();
      if (viewer.onBeforeRender === sync) viewer.onBeforeRender = undefined;
      view.dispose();
      colliders.dispose();
      overlays.dispose();
    },
  };
  drawing.applyView(settings);
  return drawing;
}
